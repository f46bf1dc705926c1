"""The world scratch ranking and the result cards anybody can verify."""
