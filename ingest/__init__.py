"""Reading documents: parse the two input formats into validated models."""
