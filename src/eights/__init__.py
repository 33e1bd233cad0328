"""eights: Crazy Eights and its wild house variants."""

__version__ = "0.1.0"
