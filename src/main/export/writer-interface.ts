/**
 * Turns the pages of one export, in order, into one file of its format. The
 * service answers each page in the format asked; the writer reads just enough
 * of each to keep at most the rows asked and to join them properly (one JSON
 * array, one XML root, one CSV header), never trusting the page to be well formed.
 */
export interface FormatWriter {
  /** Takes one page's bytes; keeps at most `asked` of its rows; returns how many it kept. */
  addPage(body: Buffer, asked: number): Promise<number>
  /** Completes the file at its temporary path. */
  finish(signal: AbortSignal): Promise<void>
  /** Closes what is open after a failure or a cancel; the job removes the files. */
  abandon(): Promise<void>
  /** Bytes on disk so far (the file, or the pages kept until the end). */
  readonly bytes: number
}

export interface WriterPaths {
  /** The file being written (renamed into place by the job once complete). */
  file: string
  /** Where csv and xlsx keep the pages until their header is known. */
  spool: string
}
