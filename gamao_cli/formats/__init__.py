"""Readers of binary match formats."""
