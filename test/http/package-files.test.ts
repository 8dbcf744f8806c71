import { describe, expect, it } from 'vitest';
import { PackageFileError, packageFiles } from '../../src/http/package-files.js';

describe('packageFiles', () => {
  it('throws a PackageFileError naming the file, not the server path, when a served file cannot be read', async () => {
    const files = packageFiles([], [{ name: 'gone.js', from: 'thumbhash', file: 'no-such-file.js' }]);
    expect(files.has('gone.js')).toBe(true);
    const failed = files.answer('gone.js', null);
    await expect(failed).rejects.toBeInstanceOf(PackageFileError);
    await expect(failed).rejects.toMatchObject({
      code: 'PACKAGE_FILE_UNREADABLE',
      message:
        "the browser file gone.js could not be read (ENOENT): the package's installation is incomplete; reinstall task-association",
    });
  });

  it('throws the same for a dependency that is not installed, and tries again on the next request', async () => {
    const files = packageFiles([], [{ name: 'x.js', from: 'no-such-package-anywhere', file: 'x.js' }]);
    for (const _ of [1, 2]) {
      await expect(files.answer('x.js', null)).rejects.toMatchObject({
        code: 'PACKAGE_FILE_UNREADABLE',
        message: expect.stringMatching(/^the browser file x\.js could not be read \(MODULE_NOT_FOUND\)/),
      });
    }
  });

  it('answers 404 for a name it does not serve, reading nothing', async () => {
    const files = packageFiles(['caroulsel-gallery.js']);
    expect(files.has('package.json')).toBe(false);
    expect((await files.answer('package.json', null)).status).toBe(404);
  });
});
