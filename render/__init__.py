"""Map pictures drawn with Pillow from a ``SideView`` (or the umpire's full view).

Layer rule: ``render`` may import the view and map types of ``rules`` only; never ``storage``,
``umpire`` or ``bot``, and it never receives a full game state.
"""

from render.draw import encode, render_image, render_map, warm_up
from render.ground import clear_cache
from render.terrain import TerrainLayer, terrain_layer

__all__ = ["TerrainLayer", "clear_cache", "encode", "render_image", "render_map", "terrain_layer",
           "warm_up"]
