/** The most rows one CSV export of the message inspector holds (the dashboard states it beside its button). */
export const EXPORT_CAP = 10_000;
