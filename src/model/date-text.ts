/*
 * Dates and times as the package gives them as values: our connections read DATE, DATETIME and
 * TIMESTAMP as a `Date` whose UTC fields are the server's wall-clock value (CONNECTION_OPTIONS), so
 * the text is made of those fields, never of the process's own time zone.
 */

/** A DATE as its day, `2026-11-20`. */
export function dayText(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** A DATETIME or TIMESTAMP as the server writes its wall time, `2026-11-20 07:30:00` (with `.250` where it has milliseconds). */
export function wallTimeText(date: Date): string {
  const iso = date.toISOString();
  const millis = iso.slice(20, 23);
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${millis === '000' ? '' : `.${millis}`}`;
}

/**
 * A date read from a column of `dataType` as the text of a value: a DATE as its day, a DATETIME or
 * TIMESTAMP as its wall time. Of a column whose type is not known, a midnight is taken as a day (a
 * DATE reads as its day's midnight). Null for a date the driver could not read (`0000-00-00`).
 */
export function dateValueText(date: Date, dataType: string | undefined): string | null {
  if (Number.isNaN(date.getTime())) return null;
  if (dataType === 'date') return dayText(date);
  if (dataType === 'datetime' || dataType === 'timestamp') return wallTimeText(date);
  return date.getUTCHours() === 0 &&
    date.getUTCMinutes() === 0 &&
    date.getUTCSeconds() === 0 &&
    date.getUTCMilliseconds() === 0
    ? dayText(date)
    : wallTimeText(date);
}

/** How long a date of `dataType` is as {@link dateValueText} writes it (milliseconds aside); undefined for other types. */
export function dateTextLength(dataType: string): number | undefined {
  if (dataType === 'date') return 10;
  return dataType === 'datetime' || dataType === 'timestamp' ? 19 : undefined;
}
