/** The AI6000's gateway type key (spec: 60 AI6000): it has a dashboard of its own. */
export const AI6000_TYPE = 60;
