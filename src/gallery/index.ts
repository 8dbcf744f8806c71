// Public API of src/gallery: re-exports only.
export {};
