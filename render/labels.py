"""The letters of the spots, as the pictures draw them: the engine's notation
(:mod:`engine.notation`), so that the pictures and the buttons use one definition."""

from engine.notation import labelled_spots, spot_label

__all__ = ["labelled_spots", "spot_label"]
