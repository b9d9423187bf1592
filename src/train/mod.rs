//! TODO(room): filled in by its issue.
