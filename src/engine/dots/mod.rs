//! Dots-and-Boxes.
