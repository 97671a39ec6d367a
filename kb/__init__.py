"""kb: a multilingual knowledge base of the Magic: The Gathering Comprehensive Rules and rulings."""

__version__ = "0.1.0"
