declare module 'unzipper' {
  /** One entry of a zip's central directory (unzipper's Open API). */
  interface CentralDirectoryFile {
    path: string;
    type: 'Directory' | 'File';
    uncompressedSize: number;
    /** The entry's content, inflated as it is read from the file. */
    stream(password?: string): NodeJS.ReadableStream & AsyncIterable<Buffer>;
  }
  interface CentralDirectory {
    files: CentralDirectoryFile[];
  }
  const unzipper: { Open: { file(path: string): Promise<CentralDirectory> } };
  export default unzipper;
}
