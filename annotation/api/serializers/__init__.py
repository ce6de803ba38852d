"""The annotation API's serializers, one module a door: campaigns, work (leases and the work
loop), questions, quality."""
