"""Every message that leaves: the queue and its channels (e-mail, browser push, webhooks), who
wants to hear what, stop links, "this is me" push, and the desk's outbox and webhook pages (a
capability room: LAYOUT.md)."""
