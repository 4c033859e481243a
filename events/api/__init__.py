"""The read API: ``/api/v1/``, JSON for what the public pages show, public events only.

``contract`` (what a format gives, plain values), ``caching`` (the version ETag, 304, stored
bodies), ``paging`` (opaque cursors), ``middleware`` (CORS, English, the per-address rate limit),
``schemas`` (the typed answers), ``views`` (the NinjaAPI and its function views), ``urls``.
"""
