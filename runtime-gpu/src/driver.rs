//! The CUDA driver API, loaded at run time (`libcuda.so.1`): the few
//! functions the runtime calls, looked up once; a missing library or
//! symbol is an error value naming it, never a crash.

use libloading::Library;
use std::{
    ffi::{c_char, c_int, c_uint, c_void, CStr},
    sync::OnceLock,
};

pub type CuResult = c_int;
pub type Handle = *mut c_void;

/// The driver's entry points we use.
pub struct Driver {
    _library: Library,
    pub init: unsafe extern "C" fn(c_uint) -> CuResult,
    pub device_get_count: unsafe extern "C" fn(*mut c_int) -> CuResult,
    pub device_get: unsafe extern "C" fn(*mut c_int, c_int) -> CuResult,
    pub device_get_attribute: unsafe extern "C" fn(*mut c_int, c_int, c_int) -> CuResult,
    pub device_get_name: unsafe extern "C" fn(*mut c_char, c_int, c_int) -> CuResult,
    pub primary_ctx_retain: unsafe extern "C" fn(*mut Handle, c_int) -> CuResult,
    pub ctx_set_current: unsafe extern "C" fn(Handle) -> CuResult,
    pub module_load_data_ex:
        unsafe extern "C" fn(*mut Handle, *const c_void, c_uint, *mut c_int, *mut *mut c_void) -> CuResult,
    pub module_unload: unsafe extern "C" fn(Handle) -> CuResult,
    pub module_get_function: unsafe extern "C" fn(*mut Handle, Handle, *const c_char) -> CuResult,
    #[allow(clippy::type_complexity)]
    pub launch_kernel: unsafe extern "C" fn(
        Handle,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        Handle,
        *mut *mut c_void,
        *mut *mut c_void,
    ) -> CuResult,
    pub stream_create: unsafe extern "C" fn(*mut Handle, c_uint) -> CuResult,
    pub stream_destroy: unsafe extern "C" fn(Handle) -> CuResult,
    pub stream_synchronize: unsafe extern "C" fn(Handle) -> CuResult,
    pub stream_wait_event: unsafe extern "C" fn(Handle, Handle, c_uint) -> CuResult,
    pub event_create: unsafe extern "C" fn(*mut Handle, c_uint) -> CuResult,
    pub event_destroy: unsafe extern "C" fn(Handle) -> CuResult,
    pub event_synchronize: unsafe extern "C" fn(Handle) -> CuResult,
    pub event_record: unsafe extern "C" fn(Handle, Handle) -> CuResult,
    pub event_elapsed_time: unsafe extern "C" fn(*mut f32, Handle, Handle) -> CuResult,
    pub mem_alloc: unsafe extern "C" fn(*mut u64, usize) -> CuResult,
    pub mem_free: unsafe extern "C" fn(u64) -> CuResult,
    pub memcpy_async: unsafe extern "C" fn(u64, u64, usize, Handle) -> CuResult,
    pub memset_d32_async: unsafe extern "C" fn(u64, c_uint, usize, Handle) -> CuResult,
    pub memset_d16_async: unsafe extern "C" fn(u64, u16, usize, Handle) -> CuResult,
    pub get_error_string: unsafe extern "C" fn(CuResult, *mut *const c_char) -> CuResult,
}

// SAFETY: the driver API is thread-safe; the struct holds only function
// pointers and the library that keeps them valid.
unsafe impl Send for Driver {}
// SAFETY: as for `Send`: shared references only call the thread-safe
// driver API through immutable function pointers.
unsafe impl Sync for Driver {}

/// `CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT`.
pub const ATTRIBUTE_MULTIPROCESSORS: c_int = 16;
/// `CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR` / `_MINOR`.
pub const ATTRIBUTE_CC_MAJOR: c_int = 75;
pub const ATTRIBUTE_CC_MINOR: c_int = 76;

impl Driver {
    fn load() -> Result<Driver, String> {
        let names = ["libcuda.so.1", "libcuda.so"];
        // SAFETY: loading the NVIDIA driver library runs its initializers,
        // which expect nothing of us.
        let library = names
            .iter()
            .find_map(|name| unsafe { Library::new(name) }.ok())
            .ok_or_else(|| "no NVIDIA driver: libcuda.so.1 was not found (is an NVIDIA GPU and its driver installed?)".to_string())?;
        macro_rules! symbol {
            ($name:literal) => {
                // SAFETY: the symbol has the C signature of the field it is
                // stored in (the CUDA driver API's, as documented).
                *unsafe { library.get(concat!($name, "\0").as_bytes()) }
                    .map_err(|_| format!("the NVIDIA driver lacks {} (too old?)", $name))?
            };
        }
        Ok(Driver {
            init: symbol!("cuInit"),
            device_get_count: symbol!("cuDeviceGetCount"),
            device_get: symbol!("cuDeviceGet"),
            device_get_attribute: symbol!("cuDeviceGetAttribute"),
            device_get_name: symbol!("cuDeviceGetName"),
            primary_ctx_retain: symbol!("cuDevicePrimaryCtxRetain"),
            ctx_set_current: symbol!("cuCtxSetCurrent"),
            module_load_data_ex: symbol!("cuModuleLoadDataEx"),
            module_unload: symbol!("cuModuleUnload"),
            module_get_function: symbol!("cuModuleGetFunction"),
            launch_kernel: symbol!("cuLaunchKernel"),
            stream_create: symbol!("cuStreamCreate"),
            stream_destroy: symbol!("cuStreamDestroy_v2"),
            stream_synchronize: symbol!("cuStreamSynchronize"),
            stream_wait_event: symbol!("cuStreamWaitEvent"),
            event_create: symbol!("cuEventCreate"),
            event_destroy: symbol!("cuEventDestroy_v2"),
            event_synchronize: symbol!("cuEventSynchronize"),
            event_record: symbol!("cuEventRecord"),
            event_elapsed_time: symbol!("cuEventElapsedTime"),
            mem_alloc: symbol!("cuMemAlloc_v2"),
            mem_free: symbol!("cuMemFree_v2"),
            memcpy_async: symbol!("cuMemcpyAsync"),
            memset_d32_async: symbol!("cuMemsetD32Async"),
            memset_d16_async: symbol!("cuMemsetD16Async"),
            get_error_string: symbol!("cuGetErrorString"),
            _library: library,
        })
    }

    /// The text of a driver error code.
    pub fn error_text(&self, code: CuResult) -> String {
        let mut text: *const c_char = std::ptr::null();
        // SAFETY: the driver writes a pointer to a static string (or leaves null).
        unsafe { (self.get_error_string)(code, &mut text) };
        if text.is_null() {
            format!("CUDA error {code}")
        } else {
            // SAFETY: a NUL-terminated static string of the driver.
            format!("{} (CUDA error {code})", unsafe { CStr::from_ptr(text) }.to_string_lossy())
        }
    }
}

/// The device we run on: its number and primary context.
pub struct Device {
    pub driver: Driver,
    pub device: c_int,
    pub context: usize,
}

static DEVICE: OnceLock<Result<Device, String>> = OnceLock::new();

/// The driver and device 0's primary context, set up on first use (and its
/// error, if there is none).
pub fn device() -> Result<&'static Device, String> {
    DEVICE.get_or_init(open).as_ref().map_err(Clone::clone)
}

fn open() -> Result<Device, String> {
    let driver = Driver::load()?;
    let check = |code: CuResult, what: &str| {
        if code == 0 {
            Ok(())
        } else {
            Err(format!("{what}: {}", driver.error_text(code)))
        }
    };
    // SAFETY: plain driver calls writing into locals.
    unsafe {
        check((driver.init)(0), "cuInit")?;
        let mut count = 0;
        check((driver.device_get_count)(&mut count), "cuDeviceGetCount")?;
        if count == 0 {
            return Err("the NVIDIA driver finds no GPU".into());
        }
        let mut device = 0;
        check((driver.device_get)(&mut device, 0), "cuDeviceGet")?;
        let mut context: Handle = std::ptr::null_mut();
        check((driver.primary_ctx_retain)(&mut context, device), "cuDevicePrimaryCtxRetain")?;
        Ok(Device { driver, device, context: context as usize })
    }
}
