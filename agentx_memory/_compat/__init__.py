"""Concurrency primitives with one spelling for the async source and its generated sync twin."""
