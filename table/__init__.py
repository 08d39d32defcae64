"""brisca-table: the controller (everything that is not pixels, firmware or HTML)."""
__version__ = "0.1.0"
