"""A rally's play: its lobby, turns, deadlines, AI drivers, hidden deals and replays."""
