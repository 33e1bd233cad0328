"""Many instances of the web table on one Redis (``eights serve --redis``): each room's lease and its
owner's fence, the instances' life signs, and the channels they send each other messages on (``leases``).
Nothing here knows a room's rules or a browser: the web table's rooms relay through it."""
