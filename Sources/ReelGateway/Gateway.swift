// The gateway: see docs/ARCHITECTURE.md. Filled in by issue 5.
public enum ReelGateway {}
