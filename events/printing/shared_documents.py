"""The documents every competition prints: importing this module registers them
(``events.printing.documents.shared``)."""
