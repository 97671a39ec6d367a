"""Keyword terminology learned from Wizards' French and Spanish card translations."""
