/*
 * Steppie guardian pages: the microphone's samples, passed on as they arrive (the routine page's
 * recorder in guardian.js collects them and encodes a 16-bit mono WAV). First channel only.
 */
class SteppieCapture extends AudioWorkletProcessor {
  process(inputs) {
    var input = inputs[0];
    if (input && input[0] && input[0].length) this.port.postMessage(input[0].slice(0));
    return true;
  }
}
registerProcessor('steppie-capture', SteppieCapture);
