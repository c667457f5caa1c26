"""Drawings of positions and matches: SVG boards, HTML replay pages."""
