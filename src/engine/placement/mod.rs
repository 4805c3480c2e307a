//! Non-attacking placement games and Node-Kayles.
