"""Discord UI glue shared by the cogs: turn buttons, posting replies, answering interactions."""
