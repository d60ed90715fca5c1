"""Every write the app makes: verb-first functions with keyword-only arguments, one transaction each.

They raise ``ServiceError`` for anything the event's rules refuse; views turn it into a message.
"""
