"""Road Rally USA (RULES Part C): a card race on a road of square spaces, with hidden hands."""
