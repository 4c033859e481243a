"""The projector screens of an event, run from the desk: paired by a one-time code, named, and
switched between what they show (``events.screens.shown``)."""
