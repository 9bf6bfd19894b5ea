"""Level geometry: the shapes a game's level is made of (tile maps; meshes and height fields
to come), each with its own acceleration structure."""

from . import tile_queries as _tile_queries  # noqa: F401  (registers the pair queries)
from .tilemap import MAX_TILES, TileMap

__all__ = ["TileMap", "MAX_TILES"]
