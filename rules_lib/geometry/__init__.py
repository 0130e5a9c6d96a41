"""Shared map geometry: hex grids (facing a hexside, fronts, arcs, distances) and square grids.

One module per grid kind, so every system that plays on that grid uses the same code.
"""
