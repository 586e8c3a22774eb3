"""Map pictures drawn with Pillow from a ``SideView`` (or the umpire's full view).

Layer rule: ``render`` may import the view and map types of ``rules`` only; never ``storage``,
``umpire`` or ``bot``, and it never receives a full game state.
"""
