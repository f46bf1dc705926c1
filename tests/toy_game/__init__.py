"""A test-only toy game: the proof that a new game plugs into the bot through the
`Game` protocol and the registry alone. See `game.py`."""
