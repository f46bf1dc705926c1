"""A test-only toy game (issue 23 item 7): the proof that a new game plugs into the bot through the
`Game` protocol and the registry alone. See `game.py`."""
