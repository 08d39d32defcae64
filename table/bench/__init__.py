"""Benchmarks behind `brisca-table bench TARGET`."""
