"""The page cache: public pages and API answers rendered once per change of what they show (``serving``), kept
in the shared cache, the database's by default (``database``). Below the views and the API, which both use it."""
