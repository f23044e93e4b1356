; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: readwrite)
define void @graph(ptr readonly captures(none) %0, ptr writeonly captures(none) initializes((0, 48)) %1, ptr captures(none) initializes((0, 240)) %2) local_unnamed_addr #0 {
  tail call fastcc void @graph_kernel_0(ptr %2) #4
  %4 = getelementptr i8, ptr %2, i64 192
  tail call fastcc void @graph_kernel_1(ptr %0, ptr %4) #4
  tail call fastcc void @graph_kernel_2(ptr %4, ptr %2) #4
  tail call fastcc void @graph_kernel_1(ptr %4, ptr %1) #4
  ret void
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: write)
define internal fastcc void @graph_kernel_0(ptr writeonly captures(none) initializes((0, 192)) %0) unnamed_addr #1 {
.preheader:
  store <4 x i64> <i64 0, i64 1, i64 2, i64 3>, ptr %0, align 4
  %1 = getelementptr inbounds nuw i8, ptr %0, i64 32
  store <4 x i64> <i64 4, i64 5, i64 0, i64 1>, ptr %1, align 4
  %2 = getelementptr inbounds nuw i8, ptr %0, i64 64
  store <4 x i64> <i64 2, i64 3, i64 4, i64 5>, ptr %2, align 4
  %3 = getelementptr inbounds nuw i8, ptr %0, i64 96
  store <4 x i64> <i64 0, i64 1, i64 2, i64 3>, ptr %3, align 4
  %4 = getelementptr inbounds nuw i8, ptr %0, i64 128
  store <4 x i64> <i64 4, i64 5, i64 0, i64 1>, ptr %4, align 4
  %5 = getelementptr inbounds nuw i8, ptr %0, i64 160
  store <4 x i64> <i64 2, i64 3, i64 4, i64 5>, ptr %5, align 4
  ret void
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define internal fastcc void @graph_kernel_1(ptr readonly captures(none) %0, ptr writeonly captures(none) initializes((0, 48)) %1) unnamed_addr #2 {
.preheader:
  %2 = load bfloat, ptr %0, align 2
  store bfloat %2, ptr %1, align 2
  %3 = getelementptr inbounds nuw i8, ptr %0, i64 2
  %4 = load bfloat, ptr %3, align 2
  %5 = getelementptr inbounds nuw i8, ptr %1, i64 2
  store bfloat %4, ptr %5, align 2
  %6 = getelementptr inbounds nuw i8, ptr %0, i64 4
  %7 = load bfloat, ptr %6, align 2
  %8 = getelementptr inbounds nuw i8, ptr %1, i64 4
  store bfloat %7, ptr %8, align 2
  %9 = getelementptr inbounds nuw i8, ptr %0, i64 6
  %10 = load bfloat, ptr %9, align 2
  %11 = getelementptr inbounds nuw i8, ptr %1, i64 6
  store bfloat %10, ptr %11, align 2
  %12 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %13 = load bfloat, ptr %12, align 2
  %14 = getelementptr inbounds nuw i8, ptr %1, i64 8
  store bfloat %13, ptr %14, align 2
  %15 = getelementptr inbounds nuw i8, ptr %0, i64 10
  %16 = load bfloat, ptr %15, align 2
  %17 = getelementptr inbounds nuw i8, ptr %1, i64 10
  store bfloat %16, ptr %17, align 2
  %18 = getelementptr inbounds nuw i8, ptr %0, i64 12
  %19 = load bfloat, ptr %18, align 2
  %20 = getelementptr inbounds nuw i8, ptr %1, i64 12
  store bfloat %19, ptr %20, align 2
  %21 = getelementptr inbounds nuw i8, ptr %0, i64 14
  %22 = load bfloat, ptr %21, align 2
  %23 = getelementptr inbounds nuw i8, ptr %1, i64 14
  store bfloat %22, ptr %23, align 2
  %24 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %25 = load bfloat, ptr %24, align 2
  %26 = getelementptr inbounds nuw i8, ptr %1, i64 16
  store bfloat %25, ptr %26, align 2
  %27 = getelementptr inbounds nuw i8, ptr %0, i64 18
  %28 = load bfloat, ptr %27, align 2
  %29 = getelementptr inbounds nuw i8, ptr %1, i64 18
  store bfloat %28, ptr %29, align 2
  %30 = getelementptr inbounds nuw i8, ptr %0, i64 20
  %31 = load bfloat, ptr %30, align 2
  %32 = getelementptr inbounds nuw i8, ptr %1, i64 20
  store bfloat %31, ptr %32, align 2
  %33 = getelementptr inbounds nuw i8, ptr %0, i64 22
  %34 = load bfloat, ptr %33, align 2
  %35 = getelementptr inbounds nuw i8, ptr %1, i64 22
  store bfloat %34, ptr %35, align 2
  %36 = getelementptr inbounds nuw i8, ptr %0, i64 24
  %37 = load bfloat, ptr %36, align 2
  %38 = getelementptr inbounds nuw i8, ptr %1, i64 24
  store bfloat %37, ptr %38, align 2
  %39 = getelementptr inbounds nuw i8, ptr %0, i64 26
  %40 = load bfloat, ptr %39, align 2
  %41 = getelementptr inbounds nuw i8, ptr %1, i64 26
  store bfloat %40, ptr %41, align 2
  %42 = getelementptr inbounds nuw i8, ptr %0, i64 28
  %43 = load bfloat, ptr %42, align 2
  %44 = getelementptr inbounds nuw i8, ptr %1, i64 28
  store bfloat %43, ptr %44, align 2
  %45 = getelementptr inbounds nuw i8, ptr %0, i64 30
  %46 = load bfloat, ptr %45, align 2
  %47 = getelementptr inbounds nuw i8, ptr %1, i64 30
  store bfloat %46, ptr %47, align 2
  %48 = getelementptr inbounds nuw i8, ptr %0, i64 32
  %49 = load bfloat, ptr %48, align 2
  %50 = getelementptr inbounds nuw i8, ptr %1, i64 32
  store bfloat %49, ptr %50, align 2
  %51 = getelementptr inbounds nuw i8, ptr %0, i64 34
  %52 = load bfloat, ptr %51, align 2
  %53 = getelementptr inbounds nuw i8, ptr %1, i64 34
  store bfloat %52, ptr %53, align 2
  %54 = getelementptr inbounds nuw i8, ptr %0, i64 36
  %55 = load bfloat, ptr %54, align 2
  %56 = getelementptr inbounds nuw i8, ptr %1, i64 36
  store bfloat %55, ptr %56, align 2
  %57 = getelementptr inbounds nuw i8, ptr %0, i64 38
  %58 = load bfloat, ptr %57, align 2
  %59 = getelementptr inbounds nuw i8, ptr %1, i64 38
  store bfloat %58, ptr %59, align 2
  %60 = getelementptr inbounds nuw i8, ptr %0, i64 40
  %61 = load bfloat, ptr %60, align 2
  %62 = getelementptr inbounds nuw i8, ptr %1, i64 40
  store bfloat %61, ptr %62, align 2
  %63 = getelementptr inbounds nuw i8, ptr %0, i64 42
  %64 = load bfloat, ptr %63, align 2
  %65 = getelementptr inbounds nuw i8, ptr %1, i64 42
  store bfloat %64, ptr %65, align 2
  %66 = getelementptr inbounds nuw i8, ptr %0, i64 44
  %67 = load bfloat, ptr %66, align 2
  %68 = getelementptr inbounds nuw i8, ptr %1, i64 44
  store bfloat %67, ptr %68, align 2
  %69 = getelementptr inbounds nuw i8, ptr %0, i64 46
  %70 = load bfloat, ptr %69, align 2
  %71 = getelementptr inbounds nuw i8, ptr %1, i64 46
  store bfloat %70, ptr %71, align 2
  ret void
}

; Function Attrs: nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define internal fastcc void @graph_kernel_2(ptr captures(none) %0, ptr captures(none) %1) unnamed_addr #3 {
  br label %.preheader1

.preheader1:                                      ; preds = %2, %81
  %3 = phi i64 [ 0, %2 ], [ %82, %81 ]
  %4 = mul nuw nsw i64 %3, 6
  %5 = getelementptr inbounds nuw bfloat, ptr %0, i64 %4
  %6 = or disjoint i64 %4, 1
  %7 = getelementptr inbounds nuw bfloat, ptr %0, i64 %6
  %8 = getelementptr inbounds nuw i64, ptr %1, i64 %4
  %9 = add nuw nsw i64 %4, 2
  %10 = getelementptr inbounds nuw bfloat, ptr %0, i64 %9
  %11 = getelementptr inbounds nuw i64, ptr %1, i64 %6
  %12 = add nuw nsw i64 %4, 3
  %13 = getelementptr inbounds nuw bfloat, ptr %0, i64 %12
  %14 = getelementptr inbounds nuw i64, ptr %1, i64 %9
  %15 = add nuw nsw i64 %4, 4
  %16 = getelementptr inbounds nuw bfloat, ptr %0, i64 %15
  %17 = getelementptr inbounds nuw i64, ptr %1, i64 %12
  %18 = getelementptr inbounds nuw bfloat, ptr %0, i64 %4
  %19 = getelementptr inbounds nuw i8, ptr %18, i64 10
  %20 = getelementptr inbounds nuw i64, ptr %1, i64 %15
  br label %.preheader

.preheader:                                       ; preds = %.preheader1, %79
  %21 = phi i64 [ 0, %.preheader1 ], [ %80, %79 ]
  %22 = load <2 x bfloat>, ptr %5, align 2
  %23 = bitcast <2 x bfloat> %22 to <2 x i16>
  %24 = zext <2 x i16> %23 to <2 x i32>
  %25 = shl nuw <2 x i32> %24, splat (i32 16)
  %26 = bitcast <2 x i32> %25 to <2 x float>
  %27 = extractelement <2 x float> %26, i64 0
  %28 = extractelement <2 x float> %26, i64 1
  %29 = fcmp ugt float %27, %28
  %30 = extractelement <2 x bfloat> %22, i64 1
  br i1 %29, label %31, label %35

31:                                               ; preds = %.preheader
  %32 = load <2 x i64>, ptr %8, align 4
  store bfloat %30, ptr %5, align 2
  %33 = extractelement <2 x bfloat> %22, i64 0
  store bfloat %33, ptr %7, align 2
  %34 = shufflevector <2 x i64> %32, <2 x i64> poison, <2 x i32> <i32 1, i32 0>
  store <2 x i64> %34, ptr %8, align 4
  %.pre = load bfloat, ptr %7, align 2
  %.pre6 = bitcast bfloat %.pre to i16
  %.pre7 = zext i16 %.pre6 to i32
  %.pre9 = shl nuw i32 %.pre7, 16
  %.pre11 = bitcast i32 %.pre9 to float
  br label %35

35:                                               ; preds = %.preheader, %31
  %.pre-phi12 = phi float [ %28, %.preheader ], [ %.pre11, %31 ]
  %36 = phi bfloat [ %30, %.preheader ], [ %.pre, %31 ]
  %37 = load bfloat, ptr %10, align 2
  %38 = bitcast bfloat %37 to i16
  %39 = zext i16 %38 to i32
  %40 = shl nuw i32 %39, 16
  %41 = bitcast i32 %40 to float
  %42 = fcmp ugt float %.pre-phi12, %41
  br i1 %42, label %43, label %46

43:                                               ; preds = %35
  %44 = load <2 x i64>, ptr %11, align 4
  store bfloat %37, ptr %7, align 2
  store bfloat %36, ptr %10, align 2
  %45 = shufflevector <2 x i64> %44, <2 x i64> poison, <2 x i32> <i32 1, i32 0>
  store <2 x i64> %45, ptr %11, align 4
  %.pre3 = load bfloat, ptr %10, align 2
  %.pre13 = bitcast bfloat %.pre3 to i16
  %.pre15 = zext i16 %.pre13 to i32
  %.pre17 = shl nuw i32 %.pre15, 16
  %.pre19 = bitcast i32 %.pre17 to float
  br label %46

46:                                               ; preds = %43, %35
  %.pre-phi20 = phi float [ %.pre19, %43 ], [ %41, %35 ]
  %47 = phi bfloat [ %.pre3, %43 ], [ %37, %35 ]
  %48 = load bfloat, ptr %13, align 2
  %49 = bitcast bfloat %48 to i16
  %50 = zext i16 %49 to i32
  %51 = shl nuw i32 %50, 16
  %52 = bitcast i32 %51 to float
  %53 = fcmp ugt float %.pre-phi20, %52
  br i1 %53, label %54, label %57

54:                                               ; preds = %46
  %55 = load <2 x i64>, ptr %14, align 4
  store bfloat %48, ptr %10, align 2
  store bfloat %47, ptr %13, align 2
  %56 = shufflevector <2 x i64> %55, <2 x i64> poison, <2 x i32> <i32 1, i32 0>
  store <2 x i64> %56, ptr %14, align 4
  %.pre4 = load bfloat, ptr %13, align 2
  %.pre21 = bitcast bfloat %.pre4 to i16
  %.pre23 = zext i16 %.pre21 to i32
  %.pre25 = shl nuw i32 %.pre23, 16
  %.pre27 = bitcast i32 %.pre25 to float
  br label %57

57:                                               ; preds = %54, %46
  %.pre-phi28 = phi float [ %.pre27, %54 ], [ %52, %46 ]
  %58 = phi bfloat [ %.pre4, %54 ], [ %48, %46 ]
  %59 = load bfloat, ptr %16, align 2
  %60 = bitcast bfloat %59 to i16
  %61 = zext i16 %60 to i32
  %62 = shl nuw i32 %61, 16
  %63 = bitcast i32 %62 to float
  %64 = fcmp ugt float %.pre-phi28, %63
  br i1 %64, label %65, label %68

65:                                               ; preds = %57
  %66 = load <2 x i64>, ptr %17, align 4
  store bfloat %59, ptr %13, align 2
  store bfloat %58, ptr %16, align 2
  %67 = shufflevector <2 x i64> %66, <2 x i64> poison, <2 x i32> <i32 1, i32 0>
  store <2 x i64> %67, ptr %17, align 4
  %.pre5 = load bfloat, ptr %16, align 2
  %.pre29 = bitcast bfloat %.pre5 to i16
  %.pre31 = zext i16 %.pre29 to i32
  %.pre33 = shl nuw i32 %.pre31, 16
  %.pre35 = bitcast i32 %.pre33 to float
  br label %68

68:                                               ; preds = %65, %57
  %.pre-phi36 = phi float [ %.pre35, %65 ], [ %63, %57 ]
  %69 = phi bfloat [ %.pre5, %65 ], [ %59, %57 ]
  %70 = load bfloat, ptr %19, align 2
  %71 = bitcast bfloat %70 to i16
  %72 = zext i16 %71 to i32
  %73 = shl nuw i32 %72, 16
  %74 = bitcast i32 %73 to float
  %75 = fcmp ugt float %.pre-phi36, %74
  br i1 %75, label %76, label %79

76:                                               ; preds = %68
  %77 = load <2 x i64>, ptr %20, align 4
  store bfloat %70, ptr %16, align 2
  store bfloat %69, ptr %19, align 2
  %78 = shufflevector <2 x i64> %77, <2 x i64> poison, <2 x i32> <i32 1, i32 0>
  store <2 x i64> %78, ptr %20, align 4
  br label %79

79:                                               ; preds = %76, %68
  %80 = add nuw nsw i64 %21, 1
  %exitcond.not = icmp eq i64 %80, 6
  br i1 %exitcond.not, label %81, label %.preheader

81:                                               ; preds = %79
  %82 = add nuw nsw i64 %3, 1
  %exitcond2.not = icmp eq i64 %82, 4
  br i1 %exitcond2.not, label %83, label %.preheader1

83:                                               ; preds = %81
  ret void
}

attributes #0 = { nofree norecurse nosync nounwind memory(argmem: readwrite) }
attributes #1 = { mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: write) }
attributes #2 = { mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite) }
attributes #3 = { nofree noinline norecurse nosync nounwind memory(argmem: readwrite) }
attributes #4 = { noinline }

!llvm.module.flags = !{!0}

!0 = !{i32 2, !"Debug Info Version", i32 3}
