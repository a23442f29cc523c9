// Runs the compiled client against a server: node run.mjs URL TOKEN TEXT.
// Prints the outcome as JSON, or the error on stderr with exit code 1.
import { run } from "./client.js";

const [url, token, text] = process.argv.slice(2);
run(url, token, text).then(
  (out) => console.log(JSON.stringify(out)),
  (err) => {
    console.error(String(err));
    process.exit(1);
  },
);
