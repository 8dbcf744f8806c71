// Public API of src/config: re-exports only.
export {};
