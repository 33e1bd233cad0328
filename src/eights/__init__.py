"""eights: Crazy Eights and its wild house variants."""

from eights._build import BUILD

__version__ = "0.1.0"
__all__ = ["BUILD", "__version__"]
