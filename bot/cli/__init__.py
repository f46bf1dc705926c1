"""Command-line subcommands of `python -m bot`; one module per subcommand, each with `register`."""
