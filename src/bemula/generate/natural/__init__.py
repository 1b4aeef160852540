"""Edition 2 of the offline generator: phrase banks, personas, natural rendering."""
