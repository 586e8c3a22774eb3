"""Line of sight and the sighting pass (``rules.sighting``): every rule against its plain
reference, incremental and live updates against a fresh pass, and the turn's visibility."""
