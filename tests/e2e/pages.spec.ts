import { expect, test } from '@playwright/test';
import { WIDTHS, builtPages, expectNoAxeViolations, watchCsp } from './support.ts';

// Every built page, at both widths: Spanish, one h1, no CSP violation, nothing axe can find. A screenshot of each is kept.
for (const path of builtPages()) {
  for (const size of WIDTHS) {
    test(`${path} a ${size.width} px es accesible y respeta la CSP`, async ({ page }, info) => {
      await page.setViewportSize({ width: size.width, height: size.height });
      const cspViolations = await watchCsp(page);
      const res = await page.goto(path);
      expect(res?.status()).toBeLessThan(500);
      await expect(page.locator('html')).toHaveAttribute('lang', 'es');
      await expect(page.locator('h1')).toHaveCount(1);
      await expectNoAxeViolations(page, `${path} (${size.name})`);
      await page.screenshot({ path: info.outputPath(`${size.name}.png`), fullPage: true });
      expect(await cspViolations()).toEqual([]);
    });
  }
}
