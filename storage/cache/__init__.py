"""The bot's cache folder: what takes long to build and can always be built again, kept in files
between runs (each read only when whole)."""
