/** A bad configuration value: its message names the variable (and never prints a secret). */
export class ConfigError extends Error {}
