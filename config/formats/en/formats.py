"""English dates as Django writes them, times on the 24-hour clock as in French ("07:19",
never "7:19 a.m."): one way to write a time per language, the same in the pages and in their
scripts (docs/decisions.md, "Times of day"). Everything not named here is Django's."""

TIME_FORMAT = "H:i"
DATETIME_FORMAT = "N j, Y, H:i"
SHORT_DATETIME_FORMAT = "m/d/Y H:i"
