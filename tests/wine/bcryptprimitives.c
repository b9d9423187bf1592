/* A test-only stand-in for Windows' bcryptprimitives.dll, for running the Windows brain under
 * Wine 8 (Debian 12's), which lacks that DLL. Rust's standard library (1.78 and later) imports one
 * function from it, ProcessPrng, which Windows 10 and later have. This one fills the buffer from
 * RtlGenRandom (advapi32's SystemFunction036), which Wine has.
 *
 * Built by scripts/wine-smoke.sh with mingw into the Wine prefix the smoke test uses; it never
 * goes into the folder shipped for the Gomocup. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
