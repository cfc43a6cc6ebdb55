public enum ReelUI {}
