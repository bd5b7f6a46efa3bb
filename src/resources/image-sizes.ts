/**
 * Allowed sizes per known image model, from the gateway's documentation. Models not listed
 * here are passed through unchecked.
 */
export const imageSizesByModel: Readonly<Record<string, readonly ImageSize[]>> = {
  'dall-e-3': ['1024x1024', '1792x1024', '1024x1792'], // the latest, highest-quality model
  'dall-e-2': ['256x256', '512x512', '1024x1024'], // the model with edits and variants
  'gpt-image-1': ['1024x1024', '1536x1024', '1024x1536'], // the third documented kind
};

/** `<width>x<height>`, e.g. `1024x1024`. */
export type ImageSize = `${number}x${number}`;
