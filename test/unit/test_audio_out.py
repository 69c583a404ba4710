"""Audio output without a sound card: device lookup by name, the frame resampler."""

import numpy as np
import pytest

from phanthy_drivers.audio_out import AudioDeviceError, LinearResampler, find_output_device


def test_device_lookup_names_what_exists():
    devices = [(0, "HDA Intel PCH: ALC3246 Analog (hw:0,0)", 2, 2, 44100.0), (1, "USB Mic", 1, 0, 48000.0),
               (3, "pulse", 32, 32, 44100.0)]
    assert find_output_device(devices, "", 3)[0] == 3
    assert find_output_device(devices, "alc3246", None)[0] == 0
    assert find_output_device(devices, "3", None)[1] == "pulse"
    with pytest.raises(AudioDeviceError, match=r"no audio output device named 'USB Mic'.*\[1\] 'USB Mic'"):
        find_output_device(devices, "USB Mic", None)  # an input only
    with pytest.raises(AudioDeviceError, match="found no audio devices"):
        find_output_device([], "", None)


def test_linear_resampler_is_continuous_across_frames():
    rs = LinearResampler(22050, 48000)
    ramp = np.arange(2205, dtype=np.int16)
    out = np.concatenate([rs(ramp[i:i + 441]) for i in range(0, 2205, 441)])
    assert abs(len(out) - 4800) <= 2 and np.all(np.diff(out.astype(int)) >= 0)
    assert np.max(np.diff(out.astype(int))) <= 1
