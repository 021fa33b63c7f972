//! What a search page does with its results natively.
//!
//! - [`snippets`]: `Model::getSnippets`, the text shown under each result.

pub mod snippets;
