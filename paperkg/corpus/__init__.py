"""The corpus on disk: which files are documents (discovery), which of them changed since they
were last read (files, the hash cache), and one document read into what it asserts (reading).
Needs no database."""
