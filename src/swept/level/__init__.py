"""Level geometry: the shapes a game's level is made of (tile maps in 2D; triangle meshes and
height fields in 3D), each with its own acceleration structure."""

from . import tile_queries as _tile_queries  # noqa: F401  (registers the pair queries)
from .heightfield import MAX_HEIGHTFIELD_POINTS, HeightField
from .mesh import TriangleMesh
from .surface import raycast_many
from .tilemap import MAX_TILES, TileMap

__all__ = ["TileMap", "MAX_TILES", "TriangleMesh", "HeightField", "MAX_HEIGHTFIELD_POINTS",
           "raycast_many"]
